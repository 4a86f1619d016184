class Field:
    def __init__(self, label):
        self.label = label

    def clean(self, value):
        return str(value)


class IntegerField(Field):
    def __init__(self, label):
        super(IntegerField, self).__init__(label)

    def clean(self, value):
        return int(super(IntegerField, self).clean(value))


class FloatField(IntegerField):
    def clean(self, value):
        # skips IntegerField.clean: the MRO after IntegerField
        return float(super(IntegerField, self).clean(value))


print(FloatField("ratio").clean("1.5"), IntegerField("count").clean(" 2"))
