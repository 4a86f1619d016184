class Repo:
    def save(self, item):
        return f"saved {item}"


class Service:
    def __init__(self):
        self.repo = Repo()

    def create(self, item):
        return self.repo.save(item)


print(Service().create("x"))
