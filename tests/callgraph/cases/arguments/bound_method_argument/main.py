class Counter:
    def __init__(self):
        self.count = 0

    def increment(self, _event):
        self.count += 1


def each(events, callback):
    for event in events:
        callback(event)


counter = Counter()
each(["a", "b"], counter.increment)
print(counter.count)
