def validate(record):
    assert record
    return record


def normalise(record):
    return record.strip()


def enrich(record):
    return record + "!"


def audit(record):
    print("audit", record)


def archive(record):
    print("archive", record)


STEPS = [validate]
STEPS.extend([normalise])
STEPS.insert(0, enrich)

SINKS = {}
SINKS.update({"audit": audit})
SINKS.setdefault("archive", archive)


def process(record):
    for step in STEPS:
        record = step(record)
    for sink in SINKS.values():
        sink(record)


process(" a ")
