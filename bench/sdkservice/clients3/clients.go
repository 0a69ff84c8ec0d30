// Package clients3 holds AWS clients.
package clients3

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	applicationautoscaling "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	bedrockruntime "github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	codecommit "github.com/aws/aws-sdk-go-v2/service/codecommit"
	ecr "github.com/aws/aws-sdk-go-v2/service/ecr"
	elasticloadbalancing "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancing"
	guardduty "github.com/aws/aws-sdk-go-v2/service/guardduty"
	kms "github.com/aws/aws-sdk-go-v2/service/kms"
	outposts "github.com/aws/aws-sdk-go-v2/service/outposts"
	route53 "github.com/aws/aws-sdk-go-v2/service/route53"
	servicequotas "github.com/aws/aws-sdk-go-v2/service/servicequotas"
	ssm "github.com/aws/aws-sdk-go-v2/service/ssm"
)

// Clients are the service clients.
type Clients struct {
	Applicationautoscaling *applicationautoscaling.Client
	Bedrockruntime         *bedrockruntime.Client
	Codecommit             *codecommit.Client
	Ecr                    *ecr.Client
	Elasticloadbalancing   *elasticloadbalancing.Client
	Guardduty              *guardduty.Client
	Kms                    *kms.Client
	Outposts               *outposts.Client
	Route53                *route53.Client
	Servicequotas          *servicequotas.Client
	Ssm                    *ssm.Client
}

// New makes every client.
func New(cfg aws.Config) *Clients {
	return &Clients{
		Applicationautoscaling: applicationautoscaling.NewFromConfig(cfg),
		Bedrockruntime:         bedrockruntime.NewFromConfig(cfg),
		Codecommit:             codecommit.NewFromConfig(cfg),
		Ecr:                    ecr.NewFromConfig(cfg),
		Elasticloadbalancing:   elasticloadbalancing.NewFromConfig(cfg),
		Guardduty:              guardduty.NewFromConfig(cfg),
		Kms:                    kms.NewFromConfig(cfg),
		Outposts:               outposts.NewFromConfig(cfg),
		Route53:                route53.NewFromConfig(cfg),
		Servicequotas:          servicequotas.NewFromConfig(cfg),
		Ssm:                    ssm.NewFromConfig(cfg),
	}
}
