class ValidationError(Exception):
    def __init__(self, field, problem):
        super().__init__(f"{field}: {problem}")
        self.field = field


def validate(user):
    if not user.get("email"):
        raise ValidationError("email", "missing")
    return user


try:
    validate({})
except ValidationError as err:
    print("invalid", err.field)
