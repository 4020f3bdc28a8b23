import pytest
from tests.store.test_contract_scope_isolation import *
pytestmark = pytest.mark.anyio
async def test_x(store_factory):
    store = await store_factory(name="x")
    model = Model()
    for step in [WriteTurn(0,(0,),0,False), WriteTurn(1,(0,),0,False), Delete(0, False, True, 0)]:
        await APPLY[type(step)](store, model, step)
        await check_every_scope(store, model)
