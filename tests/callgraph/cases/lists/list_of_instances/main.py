class Email:
    def send(self, message):
        return f"email: {message}"


class Sms:
    def send(self, message):
        return f"sms: {message}"


channels = [Email(), Sms()]


def broadcast(message):
    return [channel.send(message) for channel in channels]


print(broadcast("deploy done"))
