class Conn:
    def send(self):
        return "sent"


class Client:
    conn = None

    def __init__(self):
        self.conn = Conn()

    def go(self):
        return self.conn.send()


class Singleton:
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.setup()
        return cls._instance

    def setup(self):
        self.ready = True


class Record:
    @classmethod
    def construct(cls, **values):
        record = cls.__new__(cls)
        record.fill(values)
        return record

    def fill(self, values):
        self.values = values


print(Client().go(), Singleton() is Singleton(), Record.construct(a=1).values)
