"""bash arithmetic (onetool_wasm.shell.arithmetic), against values recorded from GNU bash 5.2.

Every expected value and message below was printed by `bash -c 'echo $((EXPR))'` (LC_ALL=C)
with the variables of STATE set; messages are what bash prints after `bash: line 1: `.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm.shell.arithmetic import ArithError, evaluate
from onetool_wasm.shell.state import ShellError, ShellState

STATE = {"x": "7", "y": "1", "s": "3 4", "g": "1/0", "a": ["4", "5"], "c": "c", "d": "e", "e": "d",
         "v": "1+2", "w": "08"}


def make_state(variables: dict, nounset: bool = False) -> ShellState:
    state = ShellState.fresh()
    state.options.nounset = nounset
    for name, value in variables.items():
        if isinstance(value, list):
            state.set_array(name, value)
        else:
            state.set(name, value)
    return state


# (expression, value or error message)
RECORDED = [
    ('2**63', -9223372036854775808),
    ('2**64', 0),
    ('2**63-1', 9223372036854775807),
    ('-2**63', -9223372036854775808),
    ('9223372036854775807+1', -9223372036854775808),
    ('9223372036854775808', -9223372036854775808),
    ('99999999999999999999', 7766279631452241919),
    ('-9223372036854775808/-1', -9223372036854775808),
    ('-9223372036854775808%-1', 0),
    ('-7/2', -3),
    ('-7%2', -1),
    ('7%-2', 1),
    ('2**-1', '2**-1: exponent less than 0 (error token is "1")'),
    ('0**0', 1),
    ('(-2)**3', -8),
    ('-2**2', 4),
    ('2**3**2', 512),
    ('1<<63', -9223372036854775808),
    ('1<<64', 1),
    ('1<<65', 2),
    ('1<<-1', -9223372036854775808),
    ('-1>>1', -1),
    ('-8>>1', -4),
    ('8>>-1', 0),
    ('~0', -1),
    ('!0', 1),
    ('!5', 0),
    ('!!7', 1),
    ('1?2:3', 2),
    ('0?2:3', 3),
    ('1?0?4:5:6', 5),
    ('1,2,3', 3),
    ('x=5,x+1', 6),
    ('x++', 7),
    ('++x', 8),
    ('x--', 7),
    ('--x', 6),
    ('++5', 5),
    ('--5', 5),
    ('5++', '5++: syntax error: operand expected (error token is "+")'),
    ('5--', '5--: syntax error: operand expected (error token is "-")'),
    ('x+++y', 8),
    ('x---y', 6),
    ('x+++++y', 9),
    ('1 ++ 2', 3),
    ('1 -- 2', 3),
    ('- -1', 1),
    ('--1', 1),
    ('---1', -1),
    ('+-+-1', 1),
    ('0x1F', 31),
    ('017', 15),
    ('00', 0),
    ('0x', 0),
    ('0b101', '0b101: value too great for base (error token is "0b101")'),
    ('2#101', 5),
    ('2#102', '2#102: value too great for base (error token is "2#102")'),
    ('16#ff', 255),
    ('36#z', 35),
    ('36#Z', 35),
    ('37#Z', '37#Z: value too great for base (error token is "37#Z")'),
    ('62#Z', 61),
    ('64#@', 62),
    ('64#_', 63),
    ('64#zZ', 2301),
    ('65#1', '65#1: invalid arithmetic base (error token is "65#1")'),
    ('1#1', '1#1: invalid arithmetic base (error token is "1#1")'),
    ('0#1', '0#1: invalid number (error token is "0#1")'),
    ('10#', '10#: invalid integer constant (error token is "10#")'),
    ('10#08', 8),
    ('08#1', '08#1: value too great for base (error token is "08#1")'),
    ('#1', '#1: syntax error: operand expected (error token is "#1")'),
    ('0x1g', '0x1g: value too great for base (error token is "0x1g")'),
    ('1a', '1a: value too great for base (error token is "1a")'),
    ('017.5', '017.5: syntax error: invalid arithmetic operator (error token is ".5")'),
    ('1.5', '1.5: syntax error: invalid arithmetic operator (error token is ".5")'),
    ('abc', 0),
    ('a.b', 'a.b: syntax error: invalid arithmetic operator (error token is ".b")'),
    ('a b', 'a b: syntax error in expression (error token is "b")'),
    ('a[1]', 5),
    ('a[1]=5', 5),
    ('a[1+1]=5,a[2]', 5),
    ('a[x]', 0),
    ('010#17', '010#17: invalid number (error token is "010#17")'),
    ('0x10#5', '0x10#5: invalid number (error token is "0x10#5")'),
    ('1_', '1_: value too great for base (error token is "1_")'),
    ('2#1_', '2#1_: value too great for base (error token is "2#1_")'),
    ('64#1_', 127),
    ('x ++', 7),
    ('x ++ 2', 'x ++ 2: syntax error in expression (error token is "2")'),
    ('++ x', 8),
    ('++(x)', 7),
    ('--x++', '--x++: ++: assignment requires lvalue (error token is "++")'),
    ('++x++', '++x++: ++: assignment requires lvalue (error token is "++")'),
    ('x++++', 'x++++: syntax error: operand expected (error token is "+")'),
    ('(x)++', '(x)++: syntax error: operand expected (error token is "+")'),
    ('a[1]++', 5),
    ('a[1]--,a[1]', 4),
    ('++a[1]', 6),
    ('1=2', '1=2: attempted assignment to non-variable (error token is "=2")'),
    ('x+1=2', 'x+1=2: attempted assignment to non-variable (error token is "=2")'),
    ('(x)=2', '(x)=2: attempted assignment to non-variable (error token is "=2")'),
    ('x=y=3', 3),
    ('x+=2', 9),
    ('x-=2', 5),
    ('x*=3', 21),
    ('x/=0', 'x/=0: division by 0 (error token is "0")'),
    ('x%=0', 'x%=0: division by 0 (error token is "0")'),
    ('x<<=2', 28),
    ('x>>=1', 3),
    ('x&=6', 6),
    ('x^=3', 4),
    ('x|=8', 15),
    ('x**=2', 'x**=2: syntax error: operand expected (error token is "=2")'),
    ('x=', 'x=: syntax error: operand expected (error token is "=")'),
    ('=1', '=1: syntax error: operand expected (error token is "=1")'),
    ('1?2', '1?2: `:\' expected for conditional expression (error token is "2")'),
    ('1?2:', '1?2:: expression expected (error token is ":")'),
    ('1?:3', '1?:3: expression expected (error token is ":3")'),
    ('1?x=5:6', 5),
    ('0?6:x=5', '0?6:x=5: attempted assignment to non-variable (error token is "=5")'),
    ('1?6:x=5', '1?6:x=5: attempted assignment to non-variable (error token is "=5")'),
    ('0?x=5:6', 6),
    ('()', '(): syntax error: operand expected (error token is ")")'),
    ('(1,2)', 2),
    ('1 2', '1 2: syntax error in expression (error token is "2")'),
    ('1 + + 2', 3),
    ('1 ** ** 2', '1 ** ** 2: syntax error: operand expected (error token is "** 2")'),
    ('1 <> 2', '1 <> 2: syntax error: operand expected (error token is "> 2")'),
    ('1 === 1', '1 === 1: syntax error: operand expected (error token is "= 1")'),
    ('1 =! 2', '1 =! 2: attempted assignment to non-variable (error token is "=! 2")'),
    ('0 && x=5', '0 && x=5: attempted assignment to non-variable (error token is "=5")'),
    ('1 || x=5', '1 || x=5: attempted assignment to non-variable (error token is "=5")'),
    ('0 && 1/0', 0),
    ('1 || 1/0', 1),
    ('0 ? 1/0 : 2', 2),
    ('1 ? 2 : 1/0', 2),
    ('5 & 3 == 3', 1),
    ('1 | 2 ^ 3 & 4', 3),
    ('!1 + 1', 1),
    ('~1 * 2', -4),
    ('-x++', -7),
    ('1 + 08 + 2', '1 + 08: value too great for base (error token is "08")'),
    ('2#1#1', '2#1#1: invalid number (error token is "2#1#1")'),
    ('2#2#1', '2#2#1: value too great for base (error token is "2#2#1")'),
    ('1@', '1@: value too great for base (error token is "1@")'),
    ('c', 'c: expression recursion level exceeded (error token is "c")'),
    ('d', 'e: expression recursion level exceeded (error token is "e")'),
    ('e', 'd: expression recursion level exceeded (error token is "d")'),
    ('s', '3 4: syntax error in expression (error token is "4")'),
    ('s+1', '3 4: syntax error in expression (error token is "4")'),
    ('v*2', 6),
    ('g+1', '1/0: division by 0 (error token is "0")'),
    ('w', '08: value too great for base (error token is "08")'),
    ('!2**2', 0),
    ('~2**2', 9),
    ('2**!0', 2),
    ('-!0', -1),
    ('1?2,3:4', 3),
    ('0?2:3,4', 4),
    ('1?2:0?3:4', 2),
    ('x = 1 ? 2 : 3', 2),
    ('x = y += 2', 3),
    ('x = 0 ? 1 : 2, x', 2),
    ('1 + 2 * 3 ** 2', 19),
    ('10 - 2 - 3', 5),
    ('100 / 10 / 5', 2),
    ('1 << 2 + 1', 8),
    ('1 < 2 == 1', 1),
    ('1 ? 0 : 1 || 1', 0),
    ('x = 1 || 0', 1),
    ('(((((1)))))', 1),
    ('x++ + ++x', 16),
    ('x-- - --x', 2),
    ('5 % 3 * 2', 4),
    ('-5 % 3', -2),
    ('1 ? 2 : 3 : 4', '1 ? 2 : 3 : 4: syntax error in expression (error token is ": 4")'),
    ('(1 2)', '(1 2): missing `)\' (error token is "2)")'),
    ('(1 @ 2)', '(1 @ 2): syntax error: invalid arithmetic operator (error token is "@ 2)")'),
    ('1 : 2', '1 : 2: syntax error in expression (error token is ": 2")'),
    ('? 1', '? 1: syntax error: operand expected (error token is "? 1")'),
    ('1 ? (2 : 3)', '1 ? (2 : 3): missing `)\' (error token is ": 3)")'),
    ('1 ? 2 3', '1 ? 2 3: `:\' expected for conditional expression (error token is "3")'),
    ('x =', 'x =: syntax error: operand expected (error token is "=")'),
    ('x = ,', 'x = ,: syntax error: operand expected (error token is ",")'),
    (', 1', ', 1: syntax error: operand expected (error token is ", 1")'),
    ('1 ,', '1 ,: syntax error: operand expected (error token is ",")'),
    ('1 , , 2', '1 , , 2: syntax error: operand expected (error token is ", 2")'),
    ('1 && ', '1 && : syntax error: operand expected (error token is "&& ")'),
    ('&& 1', '&& 1: syntax error: operand expected (error token is "&& 1")'),
    ('! ', '! : syntax error: operand expected (error token is "! ")'),
    ('-', '-: syntax error: operand expected (error token is "-")'),
    ('~', '~: syntax error: operand expected (error token is "~")'),
    ('1 ? ', '1 ? : expression expected (error token is "? ")'),
    ('1 ? 2 :', '1 ? 2 :: expression expected (error token is ":")'),
    ('++', '++: syntax error: operand expected (error token is "+")'),
    ('x ++ ++', 'x ++ ++: syntax error: operand expected (error token is "+")'),
    ('++ ++ x', 8),
    ('-- - x', -7),
    ('x-- -1', 6),
    ('a[1]=', 'a[1]=: syntax error: operand expected (error token is "=")'),
    ('++x--', '++x--: --: assignment requires lvalue (error token is "--")'),
    ('++x ++', '++x ++: ++: assignment requires lvalue (error token is "++")'),
    ('++a[1]++', '++a[1]++: ++: assignment requires lvalue (error token is "++")'),
    ('1 ++ x', '1 ++ x: syntax error in expression (error token is "++ x")'),
    ('y ++ x', 'y ++ x: syntax error in expression (error token is "x")'),
    ('1 -- x', '1 -- x: syntax error in expression (error token is "-- x")'),
    ('1 + ++ x', 9),
    ('1?2::', '1?2::: syntax error: operand expected (error token is ":")'),
    ('1 ? * 2', '1 ? * 2: syntax error: operand expected (error token is "* 2")'),
    ('1 ? 2 : * 3', '1 ? 2 : * 3: syntax error: operand expected (error token is "* 3")'),
    ('(1)(2)', '(1)(2): syntax error in expression (error token is "(2)")'),
    ('x(1)', 'x(1): syntax error in expression (error token is "(1)")'),
    ('1 =', '1 =: attempted assignment to non-variable (error token is "=")'),
    ('x ==', 'x ==: syntax error: operand expected (error token is "==")'),
    ('x = = 1', 'x = = 1: syntax error: operand expected (error token is "= 1")'),
    ('x=1=2', 'x=1=2: attempted assignment to non-variable (error token is "=2")'),
    ('a[1]+=a[1]+=2', 12),
    ('1/0 + 08', '1/0 + 08: division by 0 (error token is "0 + 08")'),
    ('2**-1 + 3', '2**-1 + 3: exponent less than 0 (error token is "+ 3")'),
    ('2**(-1)', '2**(-1): exponent less than 0 (error token is ")")'),
    ('2 ** -1*3', '2 ** -1*3: exponent less than 0 (error token is "*3")'),
    (' 1 + 08 + 2', '1 + 08: value too great for base (error token is "08")'),
    ('1 + a[1 + 2', '1 + a[1 + 2: bad array subscript (error token is "a[1 + 2")'),
    ('5 / (0)', '5 / (0): division by 0 (error token is "(0)")'),
    ('5/ -0', '5/ -0: division by 0 (error token is "-0")'),
    ('1 % 0 * 3', '1 % 0 * 3: division by 0 (error token is "0 * 3")'),
    ('x/=  0 + 1', 7),
    ('x%=(0)', 'x%=(0): division by 0 (error token is ")")'),
    ('x/=0 , 1', 'x/=0 , 1: division by 0 (error token is ", 1")'),
    ('x/=0+0', 'x/=0+0: division by 0 (error token is "0")'),
    ('x%=0 ', 'x%=0 : division by 0 (error token is "0 ")'),
    ('(x/=0)', '(x/=0): division by 0 (error token is ")")'),
    ('1 + 2 / 0 + 3', '1 + 2 / 0 + 3: division by 0 (error token is "0 + 3")'),
    ('1 @ 2', '1 @ 2: syntax error: invalid arithmetic operator (error token is "@ 2")'),
    ('@1', '@1: syntax error: operand expected (error token is "@1")'),
    ('1 [ 2', '1 [ 2: syntax error: invalid arithmetic operator (error token is "[ 2")'),
    ('[1', '[1: syntax error: operand expected (error token is "[1")'),
    ('1[', '1[: syntax error: invalid arithmetic operator (error token is "[")'),
    ('1 ] 2', '1 ] 2: syntax error: invalid arithmetic operator (error token is "] 2")'),
    ('1]', '1]: syntax error: invalid arithmetic operator (error token is "]")'),
    ('1 ; 2', '1 ; 2: syntax error: invalid arithmetic operator (error token is "; 2")'),
    ('1 \\ 2', '1 \\ 2: syntax error: invalid arithmetic operator (error token is "\\ 2")'),
    ('1 . 2', '1 . 2: syntax error: invalid arithmetic operator (error token is ". 2")'),
    ('.1', '.1: syntax error: operand expected (error token is ".1")'),
    ('1.', '1.: syntax error: invalid arithmetic operator (error token is ".")'),
    ('(1 ? 2)', '(1 ? 2): `:\' expected for conditional expression (error token is ")")'),
    ('++x = 5', '++x = 5: attempted assignment to non-variable (error token is "= 5")'),
    ('x--1', 'x--1: syntax error in expression (error token is "1")'),
    ('1 ! 2', '1 ! 2: syntax error in expression (error token is "! 2")'),
    ('0 && a[1+]', 0),
    ('0 && (1/0)', 0),
    ('1 ? 2 : 3 4', '1 ? 2 : 3 4: syntax error in expression (error token is "4")'),
    ('1 + (2 3)', '1 + (2 3): missing `)\' (error token is "3)")'),
    ('-x++ = 2', '-x++ = 2: attempted assignment to non-variable (error token is "= 2")'),
    ('65#', '65#: invalid arithmetic base (error token is "65#")'),
    ('0x#', '0x#: invalid number (error token is "0x#")'),
    ('0x1#2', '0x1#2: invalid number (error token is "0x1#2")'),
    ('a[1/0]', '1/0: division by 0 (error token is "0")'),
    ('a[1/0]=3', '1/0: division by 0 (error token is "0")'),
    ('a[1+]', '1+: syntax error: operand expected (error token is "+")'),
    ('a[1+]=2', '1+: syntax error: operand expected (error token is "+")'),
    ('a[1', 'a[1: bad array subscript (error token is "a[1")'),
    ('a[1]]', 'a[1]]: syntax error: invalid arithmetic operator (error token is "]")'),
    ('a [1]', 'a [1]: syntax error: invalid arithmetic operator (error token is "[1]")'),
    ('a[(1])', '(1: missing `)\' (error token is "1")'),
    ('a[1]x', 'a[1]x: syntax error in expression (error token is "x")'),
    ('a[1][0]', 'a[1][0]: syntax error: invalid arithmetic operator (error token is "[0]")'),
    ('a[a[0]-3]', 5),
    ('g', '1/0: division by 0 (error token is "0")'),
    ('1/0 x', '1/0 x: division by 0 (error token is "0 x")'),
    ('  1/0  ', '1/0  : division by 0 (error token is "0  ")'),
    ('0x7fffffffffffffff', 9223372036854775807),
    ('0xffffffffffffffff', -1),
    ('0x10000000000000000', 0),
    ('077777777777777777777777', -1),
    ('64#_@', 4094),
    ('2#', '2#: invalid integer constant (error token is "2#")'),
    ('10#-1', '10#: invalid integer constant (error token is "10#")'),
    ('-10#1', -1),
    ('0x-1', -1),
    ('x y', 'x y: syntax error in expression (error token is "y")'),
    ('x y .', 'x y .: syntax error: invalid arithmetic operator (error token is ".")'),
    ('x 08', 'x 08: value too great for base (error token is "08")'),
    ('1/0 x', '1/0 x: division by 0 (error token is "0 x")'),
    ('1/0 x .', '1/0 x .: syntax error: invalid arithmetic operator (error token is ".")'),
    ('x y z .', 'x y z .: syntax error: invalid arithmetic operator (error token is ".")'),
    ('64##', '64##: invalid integer constant (error token is "64##")'),
    ('zx[^=][0,', 'zx[^=][0,: syntax error: invalid arithmetic operator (error token is "[0,")'),
    ('', 0),
    ('   ', 0),
    ('x=1/0', 'x=1/0: division by 0 (error token is "0")'),
    ('(x=5) + x', 10),
    ('x + (x=5)', 12),
]


@pytest.mark.parametrize("expression, expected", RECORDED, ids=[repr(e) for e, _ in RECORDED])
def test_recorded_value_or_error(expression, expected):
    state = make_state(STATE)
    if isinstance(expected, int):
        assert evaluate(expression, state) == expected
    else:
        with pytest.raises(ArithError) as caught:
            evaluate(expression, state)
        assert caught.value.message == expected
        assert caught.value.status == 1 and caught.value.fatal


# (expression, "$x|${a[*]}|${!a[*]}|$i" afterwards), from x=7 i=1 a=(1 2); (( EXPR ))
EFFECTS = [
    ('a[i++]+=i', '7|1 4|0 1|2'),
    ('a[i++]=i', '7|1 1|0 1|2'),
    ('a[i++]++', '7|1 3|0 1|2'),
    ('++a[i++]', '7|1 3|0 1|2'),
    ('x=5, 1 +', '5|1 2|0 1|1'),
    ('x=5, 1/0', '5|1 2|0 1|1'),
    ('x+=2, x 3', '9|1 2|0 1|1'),
    ('0 && (x=9)', '7|1 2|0 1|1'),
    ('1 || (x=9)', '7|1 2|0 1|1'),
    ('x++ + x++', '9|1 2|0 1|1'),
    ('a[-1]=9', '7|1 9|0 1|1'),
    ('a[-9]=9', '7|1 2|0 1|1'),
    ('a[@]=3', '7|1 2|0 1|1'),
    ('a[ ]=4', '7|4 2|0 1|1'),
    ('x[3]=2', '7|1 2|0 1|1'),
    ('i = a[1] = 5', '7|1 5|0 1|5'),
    ('x = (i=3) + i', '6|1 2|0 1|3'),
    ('x /= 2', '3|1 2|0 1|1'),
    ('x <<= 62', '-4611686018427387904|1 2|0 1|1'),
    ('x = 1 ? i++ : i--', '1|1 2|0 1|2'),
    ('x = 0 ? i++ : i--', '1|1 2|0 1|0'),
    ('1 ? x=1 : (x=2)', '1|1 2|0 1|1'),
    ('0 ? x=1 : (x=2)', '2|1 2|0 1|1'),
    ('a[1]=a[1]+1, a[1]', '7|1 3|0 1|1'),
    ('--i, i--, x=i', '-1|1 2|0 1|-1'),
    ('i=4, x=5 08', '7|1 2|0 1|4'),
    ('i=4, 0 && 08', '7|1 2|0 1|4'),
    ('i=3, 1/0 + 08', '7|1 2|0 1|3'),
    ('x=3, 1 ? i=5 :', '3|1 2|0 1|5'),
    ('x=9, 0 && y', '9|1 2|0 1|1'),
    ('i=2, x = i ** 3 ** 2 % 1000', '512|1 2|0 1|2'),
    ('a[5]=x=3', '3|1 2 3|0 1 5|1'),
]


@pytest.mark.parametrize("expression, after", EFFECTS, ids=[repr(e) for e, _ in EFFECTS])
def test_side_effects(expression, after):
    state = make_state({"x": "7", "i": "1", "a": ["1", "2"]})
    try:
        evaluate(expression, state)
    except ArithError:
        pass   # what came before the error has happened, as in bash
    array = state.lookup("a").value
    shown = [state.get("x"), " ".join(array[k] for k in sorted(array)), " ".join(map(str, sorted(array))),
             state.get("i")]
    assert "|".join(shown) == after


def test_nounset():
    state = make_state({"x": "1", "a": []}, nounset=True)
    for expression in ("y++", "++y", "y[1]", "x ? y : 0", "y + 1"):
        with pytest.raises(ShellError) as caught:
            evaluate(expression, state)
        assert not isinstance(caught.value, ArithError)
        assert (caught.value.message, caught.value.status, caught.value.fatal) == ("y: unbound variable", 127, True)
    # An assignment does not read the name; an unset element of a set array is 0; so is `0 && y`.
    assert [evaluate(e, state) for e in ("y=5", "a[5]", "a", "x[1]", "0 && z")] == [5, 0, 0, 0, 0]


def test_recursion_limit_is_bashs():
    # bash: v0..v1022 chained to 1 evaluate; one more level is "expression recursion level exceeded"
    chain = {f"v{k}": f"v{k + 1}" for k in range(1022)}
    assert evaluate("v0", make_state({**chain, "v1022": "1"})) == 1
    with pytest.raises(ArithError) as caught:
        evaluate("v0", make_state({**chain, "v1022": "v1023", "v1023": "1"}))
    assert caught.value.message == 'v1023: expression recursion level exceeded (error token is "v1023")'
    with pytest.raises(ArithError) as caught:
        evaluate("x", make_state({"x": "y + 1", "y": "x"}))
    assert caught.value.message == 'y + 1: expression recursion level exceeded (error token is "y + 1")'


def test_readonly_is_a_plain_shell_error():
    state = make_state({"r": "1"})
    state.lookup("r").readonly = True
    with pytest.raises(ShellError) as caught:
        evaluate("r = 2", state)
    assert not isinstance(caught.value, ArithError) and caught.value.message == "r: readonly variable"


def test_deep_and_long_expressions_do_not_recurse():
    state = make_state({})
    assert evaluate("(" * 3000 + "1" + ")" * 3000, state) == 1      # bash accepts this too
    assert evaluate("-" * 3001 + "1", state) == -1
    assert evaluate(" - ".join(["1"] * 10000), state) == -9998
    assert evaluate("x=" * 3000 + "4", state) == 4 and state.get("x") == "4"
    assert evaluate("1?" * 2000 + "5" + ":0" * 2000, state) == 5
    assert evaluate("a[" * 1000 + "1" + "]" * 1000, state) == 0
    assert evaluate("2**1000000000000", state) == 0


def test_loop_of_increments_is_fast():
    state = make_state({"i": "0"})
    for _ in range(10_000):
        evaluate("i++", state)
    assert state.get("i") == "10000"


TOKENS = ["x", "y", "a[1]", "a[x]", "v", "g", "1", "0", "08", "0x1f", "2#101", "64#_", "(", ")", "+", "-", "*",
          "/", "%", "**", "<<", ">>", "<", "<=", "==", "!=", "&", "^", "|", "&&", "||", "?", ":", ",", "=", "+=",
          "/=", "++", "--", "!", "~", " ", ".", "[", "]", "#", "@", "$", "9999999999999999999999"]


@given(st.lists(st.sampled_from(TOKENS), max_size=12))
def test_random_expressions_raise_only_shell_errors(parts):
    try:
        value = evaluate("".join(parts), make_state(STATE))
    except ShellError:
        return
    assert isinstance(value, int) and -2**63 <= value < 2**63
