-- The Step Functions task token that RequestApproval waits on: the vote that decides answers it.
ALTER TABLE executions ADD COLUMN approval_token text;
