// POST /api/v1/session {"username": "ada", "password": "espresso"}: logs in, keeping the user in the cache
// for GET /api/v1/me and the cart under it.
function response(request, cache) {
    const credentials = request.bodyJSON ?? {};
    if (!credentials.username || credentials.password !== "espresso") {
        return Response.unauthorised(Body.json({
            error: "invalid_credentials",
            message: "Log in with any username and the password \"espresso\".",
        }));
    }
    const user = {username: credentials.username, name: credentials.name ?? credentials.username, loggedInAt: new Date().toISOString()};
    cache.user = user;
    cache.cart = {};
    console.info(`${user.username} logged in`);
    return Response.created(Body.json({user}), {Location: "/api/v1/me"});
}
