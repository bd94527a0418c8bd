"""What every floor of the house shares, Qt-free: how a number is written for a person (`numbers`) and the
colours that carry data (`colours`: the classes, the diverging maps of values and probabilities).

May import: numpy and the standard library only, so anything, the engine's neighbours included, can use it.
"""
