def make_validator(min_length):
    def long_enough(text):
        return len(text) >= min_length

    def validator(text):
        return text.isalnum() and long_enough(text)

    return validator


validate = make_validator(3)
print(validate("abcd"))
