"""Policy: patterns, normalisation, precedence, kinds."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import Policy
from onetool_wasm.policy import READ_VERBS, WRITE_VERBS, Decision, Pattern, infer_kind, name_words, normalize_name


def verdict(policy, ns, op, kind=None):
    return policy.decide(ns, op, kind).verdict


# --- kinds ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, kind", [
    ("get_send_quota", "write"), ("addTags", "write"), ("listPets", "read"), ("ListPets", "read"),
    ("describe-instances", "read"), ("search", "read"), ("batchGetItems", "read"), ("batch_delete_items", "write"),
    ("isReady", "read"), ("HEAD", "read"), ("canEdit", "read"), ("hasAccess", "read"), ("exists", "read"),
    ("createPet", "write"), ("deletePet", "write"), ("sendEmail", "write"), ("batch", "write"), ("", "write"),
    # no substring matching: the first whole word decides
    ("getaway", "write"), ("listen", "write"), ("shower", "write"), ("resetList", "write"), ("updateGetter", "write"),
    ("findPetByName", "read"), ("HTTPGet", "write"), ("get2FAStatus", "read"),
])
def test_infer_kind_reads_the_first_word(name, kind):
    assert infer_kind(name) == kind


@pytest.mark.parametrize("name", [
    "findOneAndDelete", "getOrCreateUser", "resolveIncident", "testAndSet", "validateAndCommit",
    "check_and_update", "listThenPurge", "exists_or_create", "isOrSet", "batchGetAndRemove", "bulk_delete_users", "describe-and-terminate",
])
def test_a_write_verb_anywhere_makes_a_write(name):
    assert infer_kind(name) == "write"


@pytest.mark.parametrize("name", ["canEdit", "isDeleted", "hasPendingUpdates", "can_delete"])
def test_a_question_is_a_read_whatever_follows(name):
    assert infer_kind(name) == "read"


def test_the_read_and_write_verbs_do_not_overlap():
    assert READ_VERBS & WRITE_VERBS == frozenset()


def test_a_deny_pattern_matches_the_batch_form_of_a_name():
    policy = Policy.from_dict({"deny": ["*:delete*"]})
    assert verdict(policy, "things", "batchDeleteThings") == "deny"
    assert verdict(policy, "things", "bulk_delete_things") == "deny"
    assert verdict(policy, "things", "deleteThings") == "deny"
    assert verdict(policy, "things", "undeleteThings") == "confirm"


def test_name_words_split_camel_snake_kebab_and_acronyms():
    assert name_words("get_send_quota") == ["get", "send", "quota"]
    assert name_words("batchGetItems") == ["batch", "get", "items"]
    assert name_words("HTTPGetURL") == ["http", "get", "url"]
    assert name_words("list-pets v2") == ["list", "pets", "v", "2"]


def test_every_read_verb_is_read_and_batch_prefixed_too():
    for verb in READ_VERBS:
        assert infer_kind(verb + "Things") == "read", verb
        assert infer_kind(f"batch_{verb}_things") == "read", verb


def test_kind_of_prefers_sensitive_list_then_declared_then_name():
    policy = Policy.from_dict({"sensitive": ["billing:*"]})
    assert policy.kind_of("billing", "getInvoice") == "sensitive"
    assert policy.kind_of("billing", "getInvoice", "read") == "sensitive"
    assert policy.kind_of("petstore", "getPet", "write") == "write"
    assert policy.kind_of("petstore", "getPet") == "read"
    assert policy.kind_of("petstore", "addTags") == "write"


# --- precedence ------------------------------------------------------------------------------------

def test_guided_defaults_read_allowed_write_confirmed():
    policy = Policy()
    assert policy.decide("petstore", "listPets") == Decision("allow", "read operation", "read")
    assert policy.decide("petstore", "createPet") == Decision("confirm", "write operation", "write")
    assert policy.decide("petstore", "anything", "sensitive") == Decision("confirm", "sensitive operation", "sensitive")
    assert policy.on_no_confirm == "deny"


def test_allow_beats_confirm():
    policy = Policy.from_dict({"allow": ["petstore:createPet"], "confirm": ["petstore:*"]})
    assert policy.decide("petstore", "createPet") == Decision(
        "allow", 'matches allow pattern "petstore:createPet"', "write", "petstore:createPet")
    assert verdict(policy, "petstore", "listPets") == "confirm"


def test_deny_beats_allow():
    policy = Policy.from_dict({"allow": ["*"], "deny": ["petstore:delete*"]})
    decision = policy.decide("petstore", "deletePet")
    assert (decision.verdict, decision.reason, decision.rule) == (
        "deny", 'matches deny pattern "petstore:delete*"', "petstore:delete*")
    assert verdict(policy, "petstore", "createPet") == "allow"


def test_confirm_beats_read_and_sensitive_beats_strict():
    policy = Policy.from_dict({"mode": "strict", "confirm": ["*:get*"], "sensitive": ["vault:*"]})
    assert verdict(policy, "petstore", "getPet") == "confirm"
    assert policy.decide("vault", "readSecret") == Decision("confirm", "sensitive operation", "sensitive")


def test_allow_beats_sensitive():
    policy = Policy.from_dict({"allow": ["vault:list*"], "sensitive": ["vault:*"]})
    assert verdict(policy, "vault", "listKeys") == "allow"
    assert verdict(policy, "vault", "rotateKey") == "confirm"


def test_strict_denies_the_unlisted_even_reads():
    policy = Policy.from_dict({"mode": "strict", "allow": ["petstore:listPets"]})
    assert verdict(policy, "petstore", "listPets") == "allow"
    assert policy.decide("petstore", "getPet") == Decision("deny", "strict mode and not in the allow list", "read")
    assert verdict(policy, "petstore", "createPet") == "deny"


def test_declared_kind_overrides_the_name():
    policy = Policy()
    assert verdict(policy, "ops", "getOrCreateSession", "write") == "confirm"
    assert verdict(policy, "ops", "recalculate", "read") == "allow"


# --- patterns --------------------------------------------------------------------------------------

@pytest.mark.parametrize("pattern, namespace, operation, expected", [
    ("petstore:delete_pet", "petstore", "deletePet", True),
    ("PetStore:Delete-Pet", "petstore", "delete_pet", True),
    ("pet store:delete pet", "petstore", "deletePet", True),
    ("petstore:delete*", "PETSTORE", "Delete_All", True),
    ("petstore:*", "petstore", "x", True),
    ("*:list*", "inventory", "listItems", True),
    ("delete*", "anything", "deleteEverything", True),   # no ':' -> every namespace
    ("deletePet", "petstore", "deletePetNow", False),    # whole-name match, not a prefix
    ("petstore:delete*", "inventory", "deleteItem", False),
    ("*Pet", "petstore", "getPets", False),
    ("*Pet", "petstore", "getPet", True),
    ("*", "a", "b", True),
    ("a.b:c", "a.b", "c", True),
    ("a.b:c", "axb", "c", False),                       # '.' is literal, not a regex
])
def test_pattern_matching(pattern, namespace, operation, expected):
    assert Pattern.parse(pattern).matches(namespace, operation) is expected


def test_normalize_name():
    assert normalize_name("Pet_Store - Delete Pet") == "petstoredeletepet"


def test_builtin_subjects_are_group_and_command():
    policy = Policy.from_dict({"deny": ["fs:rm"], "allow": ["fs:*"]})
    assert verdict(policy, "fs", "rm", "write") == "deny"
    assert verdict(policy, "fs", "write", "write") == "allow"
    assert verdict(policy, "text", "sed", "write") == "confirm"


# --- construction ----------------------------------------------------------------------------------

def test_from_dict_accepts_camel_and_snake_case_and_single_strings():
    a = Policy.from_dict({"onNoConfirm": "allow", "deny": "x:*"})
    b = Policy.from_dict({"on_no_confirm": "allow", "deny": ["x:*"]})
    assert a == b
    assert a.on_no_confirm == "allow"
    assert [p.text for p in a.deny] == ["x:*"]


@pytest.mark.parametrize("options, message", [
    ({"mode": "open"}, "policy mode must be one of guided, strict, got 'open'"),
    ({"onNoConfirm": "maybe"}, "policy onNoConfirm must be 'deny' or 'allow', got 'maybe'"),
    ({"allw": ["x"]}, "unknown policy option: allw"),
    ({"deny": [""]}, "policy pattern must be a non-empty string, got ''"),
    ({"deny": 3}, "policy deny must be a list of patterns"),
])
def test_from_dict_rejects_bad_options(options, message):
    with pytest.raises(ValueError) as error:
        Policy.from_dict(options)
    assert str(error.value) == message


def test_coerce():
    policy = Policy()
    assert Policy.coerce(None) is None
    assert Policy.coerce(policy) is policy
    assert Policy.coerce({"mode": "strict"}).mode == "strict"
    with pytest.raises(TypeError):
        Policy.coerce("strict")


def test_bad_declared_kind_is_an_error():
    with pytest.raises(ValueError):
        Policy().decide("a", "b", "delete")


# --- properties --------------------------------------------------------------------------------------

NAMES = st.text(alphabet="abcXYZ_- *", min_size=1, max_size=12).filter(lambda s: s.strip(" *_-"))


@given(NAMES, NAMES)
def test_a_pattern_equal_to_the_subject_always_matches(namespace, operation):
    subject_pattern = f"{namespace}:{operation}".replace("*", "")
    if normalize_name(namespace.replace("*", "")) and normalize_name(operation.replace("*", "")):
        assert Pattern.parse(subject_pattern).matches(namespace.replace("*", ""), operation.replace("*", ""))


@given(NAMES, NAMES, st.sampled_from(["read", "write", "sensitive", None]))
def test_deny_star_always_wins(namespace, operation, kind):
    policy = Policy.from_dict({"deny": ["*"], "allow": ["*"], "confirm": ["*"]})
    assert policy.decide(namespace, operation, kind).verdict == "deny"
