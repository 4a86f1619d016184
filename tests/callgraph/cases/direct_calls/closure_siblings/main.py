def build_report(entries):
    header = "Report"

    def title():
        return header.upper()

    def body():
        return [title()] + [str(e) for e in entries]

    return body()


print(build_report([1, 2]))
