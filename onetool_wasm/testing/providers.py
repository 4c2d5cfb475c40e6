"""The demo provider world: a pet store (10 operations) and a warehouse inventory (3).

Each call of `demo_providers()` returns fresh providers over their own in-memory state,
so tests and the browser playground can change data freely. `DEMO_POLICY` denies deletes.
"""
from __future__ import annotations

import copy
from typing import Any

from ..catalog.operations import FunctionProvider, OperationError

DEMO_POLICY: dict[str, Any] = {"mode": "guided", "deny": ["*:delete*"]}

PETS = [
    {"id": 1, "name": "Bella", "species": "dog", "status": "available", "foodSku": "DOG-FOOD-01", "tags": ["friendly"]},
    {"id": 2, "name": "Rex", "species": "dog", "status": "sold", "foodSku": "DOG-FOOD-01", "tags": ["guard"]},
    {"id": 3, "name": "Milo", "species": "cat", "status": "available", "foodSku": "CAT-FOOD-02", "tags": []},
    {"id": 4, "name": "Luna", "species": "cat", "status": "sold", "foodSku": "CAT-FOOD-02", "tags": ["indoor"]},
    {"id": 5, "name": "Kiwi", "species": "bird", "status": "pending", "foodSku": "SEED-MIX-03", "tags": []},
    {"id": 6, "name": "Nemo", "species": "fish", "status": "sold", "foodSku": "FISH-FLAKES-04", "tags": []},
    {"id": 7, "name": "Coco", "species": "rabbit", "status": "available", "foodSku": "HAY-05", "tags": ["fluffy"]},
]
ORDERS = [
    {"id": 101, "petId": 2, "quantity": 1, "status": "delivered"},
    {"id": 102, "petId": 4, "quantity": 1, "status": "delivered"},
    {"id": 103, "petId": 6, "quantity": 1, "status": "placed"},
]
STOCK = [
    {"sku": "DOG-FOOD-01", "name": "Dog food, 10 kg", "quantity": 14, "warehouse": "north"},
    {"sku": "CAT-FOOD-02", "name": "Cat food, 4 kg", "quantity": 0, "warehouse": "north"},
    {"sku": "SEED-MIX-03", "name": "Seed mix, 1 kg", "quantity": 32, "warehouse": "south"},
    {"sku": "FISH-FLAKES-04", "name": "Fish flakes, 200 g", "quantity": 9, "warehouse": "south"},
    {"sku": "HAY-05", "name": "Hay, 5 kg", "quantity": 3, "warehouse": "north"},
]

STATUS = {"type": "string", "enum": ["available", "pending", "sold"]}
PET_ID = {"type": "integer", "minimum": 1, "description": "The pet's numeric id"}
SKU = {"type": "string", "pattern": "^[A-Z]+(-[A-Z]+)*-[0-9]{2}$", "description": "Stock keeping unit, e.g. DOG-FOOD-01"}


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


class PetStore:
    """The pet store's state and operations."""

    def __init__(self) -> None:
        self.pets = copy.deepcopy(PETS)
        self.orders = copy.deepcopy(ORDERS)

    def _pet(self, pet_id: int) -> dict[str, Any]:
        for pet in self.pets:
            if pet["id"] == pet_id:
                return pet
        raise OperationError(f"no pet with id {pet_id}. Use: petstore listPets")

    def list_pets(self, input: dict[str, Any]) -> list[dict[str, Any]]:
        pets = [p for p in self.pets if input.get("status") in (None, p["status"])]
        pets = [p for p in pets if input.get("species") in (None, p["species"])]
        return pets[: input.get("limit", len(pets))]

    def get_pet(self, input: dict[str, Any]) -> dict[str, Any]:
        return self._pet(input["id"])

    def find_pet_by_name(self, input: dict[str, Any]) -> dict[str, Any]:
        wanted = input["name"].lower()
        for pet in self.pets:
            if pet["name"].lower() == wanted:
                return pet
        raise OperationError(f"no pet named {input['name']}. Use: petstore listPets")

    def create_pet(self, input: dict[str, Any]) -> dict[str, Any]:
        pet = {"id": max(p["id"] for p in self.pets) + 1, "name": input["name"], "species": input["species"],
               "status": input.get("status", "available"), "foodSku": input.get("foodSku"), "tags": []}
        self.pets.append(pet)
        return pet

    def update_pet(self, input: dict[str, Any]) -> dict[str, Any]:
        pet = self._pet(input["id"])
        pet.update({k: v for k, v in input.items() if k != "id"})
        return pet

    def delete_pet(self, input: dict[str, Any]) -> dict[str, Any]:
        self.pets.remove(self._pet(input["id"]))
        return {"deleted": input["id"]}

    def add_tags(self, input: dict[str, Any]) -> dict[str, Any]:
        pet = self._pet(input["id"])
        pet["tags"] = list(dict.fromkeys([*pet["tags"], *input["tags"]]))
        return pet

    def list_orders(self, input: dict[str, Any]) -> list[dict[str, Any]]:
        return [o for o in self.orders if input.get("status") in (None, o["status"])]

    def get_order(self, input: dict[str, Any]) -> dict[str, Any]:
        for order in self.orders:
            if order["id"] == input["id"]:
                return order
        raise OperationError(f"no order with id {input['id']}. Use: petstore listOrders")

    def place_order(self, input: dict[str, Any]) -> dict[str, Any]:
        self._pet(input["petId"])
        order = {"id": max(o["id"] for o in self.orders) + 1, "petId": input["petId"],
                 "quantity": input.get("quantity", 1), "status": "placed"}
        self.orders.append(order)
        return order

    def provider(self) -> FunctionProvider:
        return FunctionProvider("petstore", [
            {"name": "listPets", "summary": "List pets, optionally by status or species", "handler": self.list_pets,
             "input_schema": _object({"status": STATUS, "species": {"type": "string"},
                                      "limit": {"type": "integer", "minimum": 1}})},
            {"name": "getPet", "summary": "Get one pet by id", "handler": self.get_pet,
             "input_schema": _object({"id": PET_ID}, ("id",))},
            {"name": "findPetByName", "summary": "Find a pet by its name", "handler": self.find_pet_by_name,
             "input_schema": _object({"name": {"type": "string", "minLength": 1}}, ("name",))},
            {"name": "createPet", "summary": "Add a pet to the store", "handler": self.create_pet,
             "input_schema": _object({"name": {"type": "string", "minLength": 1}, "species": {"type": "string"},
                                      "status": STATUS, "foodSku": SKU}, ("name", "species"))},
            {"name": "updatePet", "summary": "Change a pet's name, status or food", "handler": self.update_pet,
             "input_schema": _object({"id": PET_ID, "name": {"type": "string", "minLength": 1}, "status": STATUS,
                                      "foodSku": SKU}, ("id",))},
            {"name": "deletePet", "summary": "Remove a pet from the store", "handler": self.delete_pet,
             "input_schema": _object({"id": PET_ID}, ("id",))},
            {"name": "addTags", "summary": "Tag a pet", "handler": self.add_tags,
             "input_schema": _object({"id": PET_ID, "tags": {"type": "array", "items": {"type": "string"},
                                                             "minItems": 1}}, ("id", "tags"))},
            {"name": "listOrders", "summary": "List orders, optionally by status", "handler": self.list_orders,
             "input_schema": _object({"status": {"type": "string", "enum": ["placed", "delivered"]}})},
            {"name": "getOrder", "summary": "Get one order by id", "handler": self.get_order,
             "input_schema": _object({"id": {"type": "integer"}}, ("id",))},
            {"name": "placeOrder", "summary": "Order a pet", "handler": self.place_order,
             "input_schema": _object({"petId": PET_ID, "quantity": {"type": "integer", "minimum": 1}}, ("petId",))},
        ], summary="A pet store: pets and orders")


class Inventory:
    """The warehouse's stock levels."""

    def __init__(self) -> None:
        self.stock = copy.deepcopy(STOCK)

    def _item(self, sku: str) -> dict[str, Any]:
        for item in self.stock:
            if item["sku"] == sku:
                return item
        raise OperationError(f"unknown sku {sku}. Use: inventory listItems")

    def list_items(self, input: dict[str, Any]) -> list[dict[str, Any]]:
        return [i for i in self.stock if input.get("warehouse") in (None, i["warehouse"])]

    def get_stock(self, input: dict[str, Any]) -> dict[str, Any]:
        return self._item(input["sku"])

    def adjust_stock(self, input: dict[str, Any]) -> dict[str, Any]:
        item = self._item(input["sku"])
        if item["quantity"] + input["delta"] < 0:
            raise OperationError(f"stock of {input['sku']} cannot go below 0 (have {item['quantity']})")
        item["quantity"] += input["delta"]
        return item

    def provider(self) -> FunctionProvider:
        return FunctionProvider("inventory", [
            {"name": "listItems", "summary": "List stock items, optionally by warehouse", "handler": self.list_items,
             "input_schema": _object({"warehouse": {"type": "string", "enum": ["north", "south"]}})},
            {"name": "getStock", "summary": "Stock level of one item by SKU", "handler": self.get_stock,
             "input_schema": _object({"sku": SKU}, ("sku",))},
            {"name": "adjustStock", "summary": "Add to or remove from an item's stock", "handler": self.adjust_stock,
             "input_schema": _object({"sku": SKU, "delta": {"type": "integer"}}, ("sku", "delta"))},
        ], summary="Warehouse stock levels by SKU")


def demo_providers() -> list[FunctionProvider]:
    """Fresh pet store and inventory providers (their own state each call)."""
    return [PetStore().provider(), Inventory().provider()]
