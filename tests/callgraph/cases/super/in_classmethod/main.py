class Model:
    @classmethod
    def table(cls):
        return cls.__name__.lower() + "s"


class Article(Model):
    @classmethod
    def table(cls):
        return "blog_" + super().table()


print(Article.table())
