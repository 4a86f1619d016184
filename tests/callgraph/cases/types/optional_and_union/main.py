from typing import Optional, Union


class Email:
    def deliver(self, text):
        return f"email: {text}"


class Sms:
    def deliver(self, text):
        return f"sms: {text}"


class Logger:
    def log(self, text):
        print("log", text)


def send(channel: Union[Email, Sms], text: str, logger: Optional[Logger] = None):
    if logger is not None:
        logger.log(text)
    return channel.deliver(text)


def send_plain(channel: Email | Sms, text: str):
    return channel.deliver(text)


print(send(Email(), "hi", Logger()), send_plain(Sms(), "yo"))
