def running_average():
    total = 0.0
    count = 0
    average = None
    while True:
        value = yield average
        total += value
        count += 1
        average = total / count


def feed(values):
    averager = running_average()
    next(averager)
    averages = [averager.send(v) for v in values]
    averager.close()
    return averages


print(feed([1, 2, 3]))
