def compile_assets():
    return "assets compiled"


def package_wheel():
    return "wheel built"


def run_all(tasks):
    return [task() for task in tasks]


print(run_all([compile_assets, package_wheel]))
