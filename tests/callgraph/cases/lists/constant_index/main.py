def lint():
    return "lint"


def test():
    return "test"


def deploy():
    return "deploy"


class Mailer:
    def send(self):
        return "mail"


class Pager:
    def send(self):
        return "page"


STAGES = [lint, test, deploy]
NOTIFIERS = (Mailer(), Pager())


def first_stage():
    return STAGES[0]()


def last_stage():
    return STAGES[-1]()


def page():
    return NOTIFIERS[1].send()


print(first_stage(), last_stage(), page())
