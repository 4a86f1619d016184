def render(total):
    return f"TOTAL {total:.2f}"
