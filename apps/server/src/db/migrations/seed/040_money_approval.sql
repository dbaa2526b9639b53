-- Money approvals: refunds and corrections minus above the threshold (yuan, exact; empty = none)
-- wait for a holder of the approver role (alias) other than the requester. Both are tenant-level.
insert into sys_param (id, param_name, param_key, param_value, remark, platform_wide) values
  (4001, '退款/冲减审批金额', 'money.approval.threshold', '', '退款或冲正(减)金额超过该值(元)时需他人审批后入账,留空为不审批', 0),
  (4002, '退款/冲减审批角色', 'money.approval.role', 'admin', '审批退款与冲正(减)的角色别名,申请人本人除外', 0);
