import services.billing.invoices

print(services.billing.invoices.issue(42))
