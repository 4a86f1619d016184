def close_database():
    print("database closed")


def flush_logs():
    print("logs flushed")


shutdown_hooks = []
shutdown_hooks.append(close_database)
shutdown_hooks.append(flush_logs)


def shutdown():
    for hook in shutdown_hooks:
        hook()


shutdown()
