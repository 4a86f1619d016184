from app.net import fetch

print(fetch("/health"))
