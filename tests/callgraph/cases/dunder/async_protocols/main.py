import asyncio


class Session:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info):
        return False

    async def get(self, url):
        return f"GET {url}"


async def fetch(url):
    async with Session() as session:
        return await session.get(url)


async def crawl():
    return [await fetch("/a"), await fetch("/b")]


print(asyncio.run(crawl()))
