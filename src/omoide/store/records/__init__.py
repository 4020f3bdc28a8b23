"""The stored record types: what the stores keep, at the bottom of the import order.

Each type has one home here (imported from it, never re-exported); the Protocols the
records are kept behind are declared where they are used, above the store.
"""
