class Temperature:
    def __init__(self, celsius):
        self.celsius = celsius

    @classmethod
    def from_fahrenheit(cls, fahrenheit):
        return cls(Temperature.to_celsius(fahrenheit))

    @staticmethod
    def to_celsius(fahrenheit):
        return (fahrenheit - 32) * 5 / 9

    def describe(self):
        return f"{self.celsius:.1f} C"


t = Temperature.from_fahrenheit(212)
print(t.describe(), t.to_celsius(50))
