class Mailer:
    def send(self, to, body):
        return f"mail to {to}: {body}"


class Notifier:
    mailer: Mailer

    def __init__(self, mailer):
        self.mailer = mailer

    def notify(self, user):
        return self.mailer.send(user, "hello")


print(Notifier(Mailer()).notify("ann"))
