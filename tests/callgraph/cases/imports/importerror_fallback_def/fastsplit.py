from _fastsplit import split_fields  # a compiled extension, absent from a source checkout


def split(text):
    return split_fields(text, ",")
