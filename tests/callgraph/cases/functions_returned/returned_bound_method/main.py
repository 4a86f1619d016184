class Service:
    def handle(self, request):
        return f"handled {request}"


def get_handler():
    service = Service()
    return service.handle


handler = get_handler()
print(handler("req"))
