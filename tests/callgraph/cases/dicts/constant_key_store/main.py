def json_dump(data):
    return str(data)


def yaml_dump(data):
    return str(data)


def xml_dump(data):
    return str(data)


WRITERS = {"json": json_dump, "yaml": yaml_dump}


def enable_xml():
    WRITERS["xml"] = xml_dump


def write_xml(data):
    return WRITERS["xml"](data)


def write_json(data):
    return WRITERS["json"](data)


enable_xml()
print(write_xml(1), write_json(2))
