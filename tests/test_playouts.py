"""The informed playouts' line-up (sim.engine.playouts), on plain functions: no kernel needed."""
import numpy as np

from sim.engine.playouts import informed_playouts


def bid(): ...
def play(): ...
def seek_bid(): ...
def seek_play(): ...


def test_each_seat_plays_its_own_strategy_and_a_searching_or_empty_seat_the_default():
    pfns = [(seek_bid,) * 3, (seek_play,) * 3]
    pparams = np.tile([0.5, 0.25], (3, 1))
    own = [((bid, play), np.array([9.0, 8.0, 7.0])), None, None]
    fns, params = informed_playouts(own, pfns, pparams)
    assert fns == [(bid, seek_bid, seek_bid), (play, seek_play, seek_play)]
    assert params.shape == (3, 3)
    assert params[0].tolist() == [9.0, 8.0, 7.0]
    assert params[1].tolist() == params[2].tolist() == [0.5, 0.25, 0.0]


def test_a_shorter_own_row_is_not_padded_with_the_defaults():
    pfns = [(seek_bid,) * 2]
    fns, params = informed_playouts([((bid,), np.array([3.0])), None], pfns, np.tile([0.5, 0.25], (2, 1)))
    assert params[0].tolist() == [3.0, 0.0] and params[1].tolist() == [0.5, 0.25]
    assert fns == [(bid, seek_bid)]
