import contextlib


class Sensor:
    def __init__(self, reading):
        self._reading = reading

    @property
    def reading(self):
        return self._reading

    @property
    def unit(self):
        return "C"

    @property
    def label(self):
        return "sensor"

    @label.setter
    def label(self, value):
        self._label = value


class Log:
    def __init__(self, reading):
        self.reading = reading  # a plain attribute: the value came from Sensor.reading


class Tagged(Sensor):
    def __init__(self, reading):
        super().__init__(reading)
        self.label = "tagged"  # the base's setter runs, though self.label is set here


s = Sensor(21)
log = Log(s.reading)
log.reading = 22
with contextlib.suppress(AttributeError):
    s.unit = "F"  # no setter: AttributeError, nothing is called
t = Tagged(3)
t.label = "again"
