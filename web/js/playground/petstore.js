// A small pet store API defined in JavaScript by the page: operations with JSON Schemas whose
// handlers run here, called from Python across the worker boundary (`petstore listPets`).
// A JavaScript re-creation of the demo store in onetool_wasm/testing/providers.py.

const PETS = [
  { id: 1, name: "Bella", species: "dog", status: "available", tags: ["friendly"] },
  { id: 2, name: "Rex", species: "dog", status: "sold", tags: ["guard"] },
  { id: 3, name: "Milo", species: "cat", status: "available", tags: [] },
  { id: 4, name: "Luna", species: "cat", status: "sold", tags: ["indoor"] },
  { id: 5, name: "Kiwi", species: "bird", status: "pending", tags: [] },
  { id: 6, name: "Nemo", species: "fish", status: "sold", tags: [] },
  { id: 7, name: "Coco", species: "rabbit", status: "available", tags: ["fluffy"] },
];
const ORDERS = [
  { id: 101, petId: 2, quantity: 1, status: "delivered" },
  { id: 102, petId: 4, quantity: 1, status: "delivered" },
  { id: 103, petId: 6, quantity: 1, status: "placed" },
];

const STATUS = { type: "string", enum: ["available", "pending", "sold"] };
const PET_ID = { type: "integer", minimum: 1, description: "The pet's numeric id" };

function object(properties, required = []) {
  return { type: "object", properties, required, additionalProperties: false };
}

/** A fresh store (its own state) as a provider: {namespace, summary, operations}. */
export function createPetStore() {
  const pets = structuredClone(PETS);
  const orders = structuredClone(ORDERS);

  const pet = (id) => {
    const found = pets.find((item) => item.id === id);
    if (!found) throw new Error(`no pet with id ${id}. Use: petstore listPets`);
    return found;
  };

  const operations = [
    {
      name: "listPets",
      summary: "List pets, optionally by status or species",
      inputSchema: object({ status: STATUS, species: { type: "string" }, limit: { type: "integer", minimum: 1 } }),
      handler: ({ status, species, limit } = {}) => pets
        .filter((item) => (status ?? item.status) === item.status && (species ?? item.species) === item.species)
        .slice(0, limit ?? pets.length),
    },
    {
      name: "getPet",
      summary: "Get one pet by id",
      inputSchema: object({ id: PET_ID }, ["id"]),
      handler: ({ id }) => pet(id),
    },
    {
      name: "createPet",
      summary: "Add a pet to the store",
      inputSchema: object({ name: { type: "string", minLength: 1 }, species: { type: "string" }, status: STATUS },
        ["name", "species"]),
      handler: ({ name, species, status = "available" }) => {
        const created = { id: Math.max(...pets.map((item) => item.id)) + 1, name, species, status, tags: [] };
        pets.push(created);
        return created;
      },
    },
    {
      name: "updatePet",
      summary: "Change a pet's name or status",
      inputSchema: object({ id: PET_ID, name: { type: "string", minLength: 1 }, status: STATUS }, ["id"]),
      handler: ({ id, ...changes }) => Object.assign(pet(id), changes),
    },
    {
      name: "deletePet",
      summary: "Remove a pet from the store",
      inputSchema: object({ id: PET_ID }, ["id"]),
      handler: ({ id }) => {
        pets.splice(pets.indexOf(pet(id)), 1);
        return { deleted: id };
      },
    },
    {
      name: "listOrders",
      summary: "List orders, optionally by status",
      inputSchema: object({ status: { type: "string", enum: ["placed", "delivered"] } }),
      handler: ({ status } = {}) => orders.filter((order) => (status ?? order.status) === order.status),
    },
    {
      name: "placeOrder",
      summary: "Order a pet",
      inputSchema: object({ petId: PET_ID, quantity: { type: "integer", minimum: 1 } }, ["petId"]),
      handler: ({ petId, quantity = 1 }) => {
        pet(petId);
        const order = { id: Math.max(...orders.map((item) => item.id)) + 1, petId, quantity, status: "placed" };
        orders.push(order);
        return order;
      },
    },
  ];

  return { namespace: "petstore", summary: "A pet store: pets and orders (JavaScript, in this page)", operations };
}

/** Providers a world can name in its `providers` list. */
export const PROVIDER_FACTORIES = { petstore: createPetStore };
