class Lazy:
    def __init__(self, loader):
        self.loader = loader

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return self.loader(obj)


class Registry:
    def __get__(self, obj, owner=None):
        return lookup


class Named(Registry):
    pass


def lookup(key):
    return key.upper()


def load_title(page):
    return page.raw.title()


class Page:
    title = Lazy(load_title)
    find = Named()

    def __init__(self, raw):
        self.raw = raw

    def heading(self):
        return self.title + "!"

    def search(self, key):
        return self.find(key)


page = Page("hello")
print(page.heading(), page.search("k"), Page.title)
