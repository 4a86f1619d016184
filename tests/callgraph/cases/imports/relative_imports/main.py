from shop.orders.checkout import checkout

print(checkout(50))
