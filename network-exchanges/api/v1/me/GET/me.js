// GET /api/v1/me: the user POST /api/v1/session stored, or 401.
function response(request, cache) {
    const user = cache.user;
    if (user == null) return Response.unauthorised(Body.json({error: "not_logged_in", message: "POST /api/v1/session first."}));
    return Response.ok(Body.json(user));
}
