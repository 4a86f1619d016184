import ast
import threading
from html.parser import HTMLParser


class Worker(threading.Thread):
    def run(self):
        record("ran")


class CallFinder(ast.NodeVisitor):
    def visit_Call(self, node):
        record("call")
        self.generic_visit(node)


class LinkParser(HTMLParser):
    def handle_starttag(self, tag, attrs):
        record(tag)


SEEN = []


def record(what):
    SEEN.append(what)


def main():
    worker = Worker()
    worker.start()
    worker.join()
    CallFinder().visit(ast.parse("f(g())"))
    LinkParser().feed("<a href='x'>link</a>")
    return SEEN


print(main())
