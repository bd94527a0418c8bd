"""What every floor of the house shares, Qt-free: how a number is written for a person (`numbers`), the
colours that carry data (`colours`: the classes, the diverging maps of values and probabilities), each class's
shape (`class_marks`) and WCAG's contrast ratio (`contrast`).

May import: numpy and the standard library only, so anything, the engine's neighbours included, can use it.
"""
