#ifndef ESPRESSOMARTINI_CJAVASCRIPTCORE_SHIM_H
#define ESPRESSOMARTINI_CJAVASCRIPTCORE_SHIM_H
// The part of JavaScriptCore's C API (libjavascriptcoregtk-4.1.so.0, <JavaScriptCore/JavaScript.h>) that
// espressomartini calls, as function pointer types. The binary never links JavaScriptCore: the library is
// loaded with dlopen when a tree has a script and each function is resolved with dlsym into a table of
// these types (EspressoMartiniScripting/JavaScriptCoreLibrary.swift), so a tree without scripts neither
// maps nor needs it. The types are declared here rather than taken from the -dev headers because SwiftPM
// links a pkg-config system library into every product that imports it, which is what dlopen avoids.
// The signatures follow the public headers of the C API, stable since 2008.
#include <stdbool.h>
#include <stddef.h>

typedef const struct OpaqueJSContextGroup *JSContextGroupRef;
typedef const struct OpaqueJSContext *JSContextRef;
typedef struct OpaqueJSContext *JSGlobalContextRef;
typedef struct OpaqueJSString *JSStringRef;
typedef struct OpaqueJSClass *JSClassRef;
typedef const struct OpaqueJSValue *JSValueRef;
typedef struct OpaqueJSValue *JSObjectRef;
typedef unsigned JSPropertyAttributes;

/// JSValueGetType's answer.
typedef enum {
    kJSTypeUndefined, kJSTypeNull, kJSTypeBoolean, kJSTypeNumber, kJSTypeString, kJSTypeObject, kJSTypeSymbol, kJSTypeBigInt
} JSType;

enum { kJSPropertyAttributeReadOnly = 1 << 1, kJSPropertyAttributeDontEnum = 1 << 2, kJSPropertyAttributeDontDelete = 1 << 3 };

typedef JSValueRef (*JSObjectCallAsFunctionCallback)(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject,
                                                     size_t argumentCount, const JSValueRef arguments[], JSValueRef *exception);

typedef JSContextGroupRef (*EMJSContextGroupCreate)(void);
typedef void (*EMJSContextGroupRelease)(JSContextGroupRef group);
typedef JSGlobalContextRef (*EMJSGlobalContextCreateInGroup)(JSContextGroupRef group, JSClassRef globalObjectClass);
typedef void (*EMJSGlobalContextRelease)(JSGlobalContextRef ctx);
typedef JSObjectRef (*EMJSContextGetGlobalObject)(JSContextRef ctx);
typedef JSValueRef (*EMJSEvaluateScript)(JSContextRef ctx, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL,
                                         int startingLineNumber, JSValueRef *exception);
typedef JSStringRef (*EMJSStringCreateWithCharacters)(const unsigned short *characters, size_t count);
typedef void (*EMJSStringRelease)(JSStringRef string);
typedef size_t (*EMJSStringGetMaximumUTF8CStringSize)(JSStringRef string);
typedef size_t (*EMJSStringGetUTF8CString)(JSStringRef string, char *buffer, size_t bufferSize);
typedef JSValueRef (*EMJSValueMakeString)(JSContextRef ctx, JSStringRef string);
typedef JSValueRef (*EMJSValueMakeUndefined)(JSContextRef ctx);
typedef JSValueRef (*EMJSValueMakeNull)(JSContextRef ctx);
typedef JSValueRef (*EMJSValueMakeNumber)(JSContextRef ctx, double number);
typedef JSValueRef (*EMJSValueMakeFromJSONString)(JSContextRef ctx, JSStringRef string);
typedef JSType (*EMJSValueGetType)(JSContextRef ctx, JSValueRef value);
typedef JSStringRef (*EMJSValueToStringCopy)(JSContextRef ctx, JSValueRef value, JSValueRef *exception);
typedef JSObjectRef (*EMJSValueToObject)(JSContextRef ctx, JSValueRef value, JSValueRef *exception);
typedef double (*EMJSValueToNumber)(JSContextRef ctx, JSValueRef value, JSValueRef *exception);
typedef void (*EMJSValueProtect)(JSContextRef ctx, JSValueRef value);
typedef void (*EMJSValueUnprotect)(JSContextRef ctx, JSValueRef value);
typedef JSObjectRef (*EMJSObjectMakeFunctionWithCallback)(JSContextRef ctx, JSStringRef name, JSObjectCallAsFunctionCallback callAsFunction);
typedef void (*EMJSObjectSetProperty)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef value,
                                      JSPropertyAttributes attributes, JSValueRef *exception);
typedef JSValueRef (*EMJSObjectGetProperty)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception);
typedef JSValueRef (*EMJSObjectGetPropertyAtIndex)(JSContextRef ctx, JSObjectRef object, unsigned propertyIndex, JSValueRef *exception);
// Exported but declared only in the private JSBasePrivate.h: an object describing the VM's heap
// (`heapCapacity`, in bytes, among others). It walks every live object: tens of milliseconds for a heap of
// many small ones.
typedef JSObjectRef (*EMJSGetMemoryUsageStatistics)(JSContextRef ctx);
typedef JSValueRef (*EMJSObjectCallAsFunction)(JSContextRef ctx, JSObjectRef object, JSObjectRef thisObject, size_t argumentCount,
                                               const JSValueRef arguments[], JSValueRef *exception);

// Exported by the library but declared only in WebKit's private JSContextRefPrivate.h, which Debian does
// not ship: calls `callback` on the running thread each time a script has run `limit` seconds of processor
// time; true stops the script with an exception it cannot catch. Returning false does not arm the limit
// again: the callback sets it anew to be called again.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
typedef void (*EMJSContextGroupSetExecutionTimeLimit)(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);

// JavaScriptCore's options (the GLib API of the same library, <jsc/jsc.h>), read when the first VM is made.
typedef int (*EMJSCOptionsSetBoolean)(const char *option, int value);

// WTF::releaseFastMallocFreeMemory(), a C++ function without arguments or result: gives the pages the
// engine's allocator (libpas) holds free back to the system at once, instead of at its own pace.
typedef void (*EMReleaseFreeMemory)(void);

#endif
