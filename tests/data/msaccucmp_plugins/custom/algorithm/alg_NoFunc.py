# No compare(): msaccucmp warns and leaves the column out.
VALUE = 1
