def validate_name(user):
    return bool(user.get("name"))


def validate_email(user):
    return "@" in user.get("email", "")


def audit_access(user):
    print("access", user.get("name"))


def audit_quota(user):
    print("quota", user.get("name"))


VALIDATORS = (validate_name, validate_email)
AUDITORS = {audit_access, audit_quota}


def check(user):
    results = [validate(user) for validate in VALIDATORS]
    for auditor in AUDITORS:
        auditor(user)
    return results


print(check({"name": "ann", "email": "ann@example.com"}))
