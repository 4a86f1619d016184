ROUTES = {}


def route(path):
    def decorate(view):
        ROUTES[path] = view
        return view

    return decorate


@route("/")
def index():
    return "home"


@route("/about")
def about():
    return "about us"


def dispatch(path):
    return ROUTES[path]()


print(dispatch("/"), about())
