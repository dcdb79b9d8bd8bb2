// Keeps the user who logs in in the cache.
function response(request, cache) {
    cache.user = request.bodyJSON.username;
    return Response.created(Body.json({user: cache.user}));
}
