class Query:
    def __init__(self, table):
        self.table = table
        self.clauses = []

    def where(self, clause) -> "Query":
        self.clauses.append(f"WHERE {clause}")
        return self

    def order_by(self, column):
        self.clauses.append(f"ORDER BY {column}")
        return self

    def sql(self):
        return f"SELECT * FROM {self.table} " + " ".join(self.clauses)


print(Query("users").where("age > 3").order_by("name").sql())
