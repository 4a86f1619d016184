class Query:
    def __init__(self):
        self.terms = []

    def where(self, term):
        self.terms.append(term)
        return self

    @classmethod
    def create(cls):
        return cls()

    def fetch(self):
        return list(self.terms)


class UserQuery(Query):
    def fetch(self):
        return ["user"] + self.terms


class PostQuery(Query):
    def fetch(self):
        return ["post"] + self.terms


def users():
    return UserQuery().where("active").fetch()


def posts():
    return PostQuery.create().where("recent").fetch()


users()
posts()
