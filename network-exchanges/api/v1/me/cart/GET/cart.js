// GET /api/v1/me/cart: what POST /api/v1/me/cart added.
function response(request, cache) {
    if (cache.user == null) return Response.unauthorised(Body.json({error: "not_logged_in"}));
    const items = cache.cart ?? {};
    const count = Object.values(items).reduce((sum, quantity) => sum + quantity, 0);
    return Response.ok(Body.json({user: cache.user.username, items, count}));
}
