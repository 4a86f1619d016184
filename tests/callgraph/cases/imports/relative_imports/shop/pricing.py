def apply_discount(amount, percent):
    return amount * (100 - percent) / 100
