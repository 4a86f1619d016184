import asyncio


class Response:
    def json(self):
        return {"ok": True}


class Client:
    async def get(self, path):
        return Response()


async def connect():
    return Client()


async def main():
    client = await connect()
    response = await client.get("/")
    data = (await client.get("/x")).json()
    return response.json(), data


print(asyncio.run(main()))
