def issue(number):
    return f"INV-{number:05d}"
