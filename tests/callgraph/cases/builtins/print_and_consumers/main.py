class Countdown:
    def __init__(self, start):
        self.left = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.left == 0:
            raise StopIteration
        self.left -= 1
        return self.left

    def __repr__(self):
        return f"Countdown({self.left})"

    def __bool__(self):
        return self.left > 0


def launch(*stages):
    return len(stages)


counter = Countdown(3)
print("from", counter)
total = sum(counter)
again = Countdown(2)
if bool(again):
    launch(*again)
paired = zip(Countdown(1), Countdown(2), strict=False)
