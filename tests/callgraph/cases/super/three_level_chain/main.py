class Repository:
    def save(self, item):
        return [f"stored {item}"]


class ValidatingRepository(Repository):
    def save(self, item):
        if not item:
            raise ValueError("empty item")
        return super().save(item)


class AuditedRepository(ValidatingRepository):
    def save(self, item):
        return ["audit"] + super().save(item)


print(AuditedRepository().save("x"), ValidatingRepository().save("y"))
