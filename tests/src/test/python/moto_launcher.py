"""Starts moto_server 5.2.1 with Step Functions executing the ASL, patched for livegate.

Usage: python3 moto_launcher.py -p PORT [any other moto_server option]

The JUnit extension io.livegate.tests.moto.MotoServer runs this file; it can also be run by hand.

Lambda convention. Without Docker moto runs no function code, so a test plays the function's part
as it plays ECS containers: patch 7 records every invocation of an existing function as a
LambdaInvocation model (function_name, invocation_type, payload), which the test reads from
/moto-api/data.json under "awslambda_simple".

Exit-code convention. ECS tasks never run their containers in moto, so a test plays the
container's part, and moto has no API to set a container's exit code. A test ends a task with
StopTask(reason="livegate-test exit code N"); patch 3 reads N as the exit code of every container
of the task, as if the essential container had exited with N. A stopped task whose reason does not
follow the convention counts as exit code 0.
"""

import copy
import json
import os
import re
import sys
from urllib.parse import parse_qs, urlsplit

import moto

if moto.__version__ != "5.2.1":
    sys.exit(f"moto_launcher.py patches moto 5.2.1, found moto {moto.__version__}")

import botocore.session
from moto.awslambda.models import LambdaFunction
from moto.awslambda_simple.models import LambdaSimpleBackend
from moto.core.common_models import BaseModel
from moto.core.config import default_user_config
from moto.core.model_instances import model_data as tracked_models
from moto.core.responses import EmptyResult
from moto.core.utils import utcnow
from moto.ecs.models import Task
from moto.moto_api import state_manager
from moto.moto_api._internal import urls as moto_api_urls
from moto.moto_api._internal import mock_random
from moto.server import main
from moto.stepfunctions.models import StateMachineInstance
from moto.stepfunctions.parser.api import HistoryEventType, TaskFailedEventDetails
from moto.stepfunctions.parser.asl.component.common.error_name.failure_event import (
    FailureEvent,
    FailureEventException,
)
from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name import (
    StatesErrorName,
)
from moto.stepfunctions.parser.asl.component.common.error_name.states_error_name_type import (
    StatesErrorNameType,
)
from moto.stepfunctions.parser.asl.component.state.exec.state_task.service.state_task_service_ecs import (
    StateTaskServiceEcs,
)
from moto.stepfunctions.parser.asl.component.state.exec.state_task.service.state_task_service_callback import (
    StateTaskServiceCallback,
)
from moto.stepfunctions.parser.asl.eval.callback.callback import CallbackEndpoint
from moto.stepfunctions.parser.asl.eval.event.event_detail import EventDetails
from moto.stepfunctions.parser.asl.utils.encoding import to_json_str
from moto.stepfunctions.parser.models import StepFunctionsParserBackend
from moto.stepfunctions.responses import StepFunctionResponse

EXIT_CODE_REASON = re.compile(r"livegate-test exit code (-?\d+)")

_ECS_MODEL = botocore.session.get_session().get_service_model("ecs")
_ECS_OPERATIONS = {
    botocore.xform_name(operation): operation for operation in _ECS_MODEL.operation_names
}


def _ecs_operation(service_task, service_action_name):
    return _ECS_MODEL.operation_model(
        _ECS_OPERATIONS[service_task._get_boto_service_action(service_action_name)]
    )


# Patch 1. moto 5.2.1 stubs out StateTaskService._normalise_parameters/_normalise_response, so the
# ECS integration sends the ASL's PascalCase parameters (Cluster, TaskDefinition...) to boto, whose
# JSON serializer fails with KeyError: 'Cluster', and reads "Tasks" from a camelCase response.
# Map both through the ECS API shapes, with the converters moto already has.
def _normalise_ecs_parameters(
    self, parameters, boto_service_name=None, service_action_name=None
):
    self._to_boto_request(parameters, _ecs_operation(self, service_action_name).input_shape)


def _normalise_ecs_response(
    self, response, boto_service_name=None, service_action_name=None
):
    self._from_boto_response(response, _ecs_operation(self, service_action_name).output_shape)


StateTaskServiceEcs._normalise_parameters = _normalise_ecs_parameters
StateTaskServiceEcs._normalise_response = _normalise_ecs_response


# Patch 2. moto 5.2.1 deep-copies the state machine on every StartExecution, with its list of
# executions, whose worker threads hold an RLock: every execution after the first fails with
# "cannot pickle '_thread.RLock' object". The copy needs the definition, not the executions.
def _deepcopy_without_executions(self, memo):
    clone = copy.copy(self)
    memo[id(self)] = clone
    for name, value in vars(self).items():
        setattr(clone, name, [] if name == "executions" else copy.deepcopy(value, memo))
    return clone


StateMachineInstance.__deepcopy__ = _deepcopy_without_executions


# Patch 3. moto 5.2.1's ecs:runTask.sync resolver succeeds as soon as the task is STOPPED and never
# looks at an exit code. On AWS a task whose essential container exits non-zero fails the state
# with States.TaskFailed and the task description as the cause. Apply the exit-code convention
# described at the top of this file.
_build_ecs_sync_resolver = StateTaskServiceEcs._build_sync_resolver


def _build_ecs_sync_resolver_with_exit_code(self, env, *args, **kwargs):
    resolve_stopped_task = _build_ecs_sync_resolver(self, env, *args, **kwargs)

    def resolve():
        task = resolve_stopped_task()
        if task is None:
            return None
        reason = EXIT_CODE_REASON.search(task.get("StoppedReason", ""))
        exit_code = int(reason.group(1)) if reason else 0
        for container in task.get("Containers", []):
            container["ExitCode"] = exit_code
        if exit_code == 0:
            return task
        error = StatesErrorNameType.StatesTaskFailed
        raise FailureEventException(
            FailureEvent(
                env=env,
                error_name=StatesErrorName(typ=error),
                event_type=HistoryEventType.TaskFailed,
                event_details=EventDetails(
                    taskFailedEventDetails=TaskFailedEventDetails(
                        resource=self._get_sfn_resource(),
                        resourceType=self._get_sfn_resource_type(),
                        error=error.to_name(),
                        cause=to_json_str(task),
                    )
                ),
            )
        )

    return resolve


StateTaskServiceEcs._build_sync_resolver = _build_ecs_sync_resolver_with_exit_code


# Patch 4. With execute_state_machine on, moto 5.2.1 names an execution started without a name
# "None", so the second unnamed StartExecution returns the first execution or fails with
# ExecutionAlreadyExists. AWS generates a UUID, as moto does with execution turned off.
_start_execution = StepFunctionsParserBackend.start_execution


def _start_execution_with_generated_name(
    self, state_machine_arn, name=None, execution_input=None, trace_header=None
):
    return _start_execution(
        self,
        state_machine_arn,
        name or str(mock_random.uuid4()),
        execution_input,
        trace_header,
    )


StepFunctionsParserBackend.start_execution = _start_execution_with_generated_name


# Patch 5. moto 5.2.1's SendTaskFailure handler passes the error but drops the cause, so a Catch
# sees no Cause. Pass both, as AWS does.
def _send_task_failure_with_cause(self):
    self.stepfunction_backend.send_task_failure(
        self._get_param("taskToken"),
        error=self._get_param("error"),
        cause=self._get_param("cause"),
    )
    return EmptyResult()


StepFunctionResponse.send_task_failure = _send_task_failure_with_cause


# Patch 6. moto 5.2.1 keeps one callback endpoint per Task state's token for every attempt, and the
# end of an attempt interrupts it, so the retry of an ecs:runTask.sync attempt that failed (a task
# that stopped with a non-zero exit code) ends at once with TaskTimedOut. On AWS each attempt
# starts afresh: a retried attempt gets a new endpoint.
_eval_integration_pattern = StateTaskServiceCallback._eval_integration_pattern


def _eval_integration_pattern_with_fresh_endpoint(self, env, *args, **kwargs):
    token = env.states.context_object.context_object_data.get("Task", {}).get("Token")
    endpoint = env.callback_pool_manager.get(token) if token else None
    if endpoint is not None and endpoint._notify_event.is_set():
        env.callback_pool_manager._pool[token] = CallbackEndpoint(callback_id=token)
    return _eval_integration_pattern(self, env, *args, **kwargs)


StateTaskServiceCallback._eval_integration_pattern = (
    _eval_integration_pattern_with_fresh_endpoint
)


# Patch 7. moto 5.2.1 runs a Lambda function's code in Docker, which is not here; its Docker-less
# backend answers any invocation, even of a function that does not exist, and keeps no record. As
# on AWS, invoking a function that does not exist fails (ResourceNotFoundException); every other
# invocation is recorded (see "Lambda convention" at the top of this file). A function's Docker
# client is no attribute here, so that the model dump, which reads every attribute, skips it
# instead of failing with the DockerException of connecting to no Docker.
class LambdaInvocation(BaseModel):
    # The model dump groups models by the second part of their module's name.
    __module__ = "moto.awslambda_simple.invocations"

    def __init__(self, function_name, invocation_type, payload):
        self.function_name = function_name
        self.invocation_type = invocation_type
        self.payload = payload


_invoke_simple = LambdaSimpleBackend.invoke


def _invoke_recorded(self, function_name, qualifier, body, headers, response_headers):
    function = self.get_function(function_name, qualifier)
    LambdaInvocation(
        function.function_name,
        headers.get("X-Amz-Invocation-Type", "RequestResponse"),
        body.decode("utf-8") if isinstance(body, bytes) else body,
    )
    return _invoke_simple(self, function_name, qualifier, body, headers, response_headers)


LambdaSimpleBackend.invoke = _invoke_recorded


def _no_docker_client(self):
    raise AttributeError("moto runs no Lambda code here: there is no Docker")


LambdaFunction.docker_client = property(_no_docker_client)


# Patch 8. moto 5.2.1's ECS tasks have neither createdAt nor startedAt, which AWS always gives a
# running task; the trigger's watchdog stops a scan task by its age. A task here starts when it is
# created (there is no image to pull).
_task_init = Task.__init__


def _task_init_with_times(self, *args, **kwargs):
    _task_init(self, *args, **kwargs)
    self.created_at = utcnow()
    self.started_at = self.created_at


Task.__init__ = _task_init_with_times


# Patch 9. moto 5.2.1's model dump (/moto-api/data.json) reads every attribute of every model of
# every service, Step Functions executions, S3 objects and ECS tasks included: in a deployment it
# took moto seconds of CPU a call, most of a moto test's time, while the tests that poll it read
# only the mail SES sent and the invocations patch 7 records. With "service" query parameters
# (data.json?service=ses&service=awslambda_simple) it dumps those services' models only, each as
# moto dumps it; without, every service's, as before.
_dump_every_service = moto_api_urls.url_paths["{0}/moto-api/data.json"]


def _dump_of_services(request, full_url, headers):
    services = parse_qs(urlsplit(full_url).query).get("service")
    if not services:
        return _dump_every_service(request, full_url, headers)
    results = {}
    for service in sorted(set(services)):
        models = tracked_models.get(service, {})
        results[service] = {}
        for name in sorted(models):
            results[service][name] = []
            for instance in models[name].instances_tracked:
                dumped = {}
                for attribute in dir(instance):
                    if not attribute.startswith("_"):
                        try:
                            json.dumps(getattr(instance, attribute))
                        except (TypeError, AttributeError, ValueError):
                            pass
                        else:
                            dumped[attribute] = getattr(instance, attribute)
                results[service][name].append(dumped)
    return 200, {"Content-Type": "application/javascript"}, json.dumps(results)


moto_api_urls.url_paths["{0}/moto-api/data.json"] = _dump_of_services


if __name__ == "__main__":
    default_user_config["stepfunctions"] = {"execute_state_machine": True}
    default_user_config["lambda"] = {"use_docker": False}
    # moto moves a task one step towards STOPPED each time it is described, so a .sync state that
    # polls DescribeTasks would end its task within seconds. A task here runs until StopTask, as on
    # AWS it runs until its essential container exits.
    state_manager.set_transition("ecs::task", {"progression": "manual", "times": sys.maxsize})
    arguments = sys.argv[1:]
    # Step Functions calls ECS, SNS and the other services through localhost:$MOTO_PORT.
    os.environ["MOTO_PORT"] = arguments[arguments.index("-p") + 1]
    main(arguments)
