#ifndef ESPRESSOMARTINI_CYAML_SHIM_H
#define ESPRESSOMARTINI_CYAML_SHIM_H
// libyaml's types (Debian's libyaml-dev), and nothing to link: espressomartini loads libyaml-0.so.2 with
// dlopen the first time it reads YAML (EspressoMartiniYAML/YAMLReader.swift: a script's YAML body, a
// description `import openapi` reads), so a server that never meets YAML does not map it.
#include <yaml.h>

typedef int (*EMYAMLParserInitialize)(yaml_parser_t *parser);
typedef void (*EMYAMLParserDelete)(yaml_parser_t *parser);
typedef void (*EMYAMLParserSetInputString)(yaml_parser_t *parser, const unsigned char *input, size_t size);
typedef int (*EMYAMLParserParse)(yaml_parser_t *parser, yaml_event_t *event);
typedef void (*EMYAMLEventDelete)(yaml_event_t *event);
#endif
