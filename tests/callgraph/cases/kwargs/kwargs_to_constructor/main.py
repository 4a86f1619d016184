class Client:
    def __init__(self, host, timeout=5):
        self.host = host
        self.timeout = timeout

    def get(self, path):
        return f"GET {self.host}{path} ({self.timeout}s)"


def make_client(**options):
    return Client(**options)


client = make_client(host="api", timeout=1)
print(client.get("/"))
