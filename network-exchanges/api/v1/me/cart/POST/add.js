// POST /api/v1/me/cart {"id": "espresso-cup", "quantity": 2} (or the same as YAML): adds to the logged-in user's cart.
function response(request, cache) {
    if (cache.user == null) return Response.unauthorised(Body.json({error: "not_logged_in"}));
    const item = request.bodyJSON ?? request.bodyYAML;
    if (typeof item?.id !== "string" || !Number.isInteger(item.quantity) || item.quantity < 1) {
        return Response.badRequest(Body.json({error: "invalid_item", message: "Send {\"id\": \"espresso-cup\", \"quantity\": 2}."}));
    }
    const cart = cache.cart ?? {};
    cart[item.id] = (cart[item.id] ?? 0) + item.quantity;
    cache.cart = cart;
    return Response.ok(Body.json({user: cache.user.username, items: cart}));
}
